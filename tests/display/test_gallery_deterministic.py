"""`doge-companion screens` is deterministic, so docs/screens can be checked: two runs, identical bytes."""

from __future__ import annotations

from pathlib import Path

from companion.cli.gallery import write


def test_the_gallery_twice_gives_byte_identical_files(tmp_path: Path) -> None:
    first = write(tmp_path / "one" / "screens")
    second = write(tmp_path / "two" / "screens")
    assert [p.relative_to(tmp_path / "one") for p in first] == [p.relative_to(tmp_path / "two") for p in second]
    assert len(first) > 100
    different = [
        str(a.relative_to(tmp_path)) for a, b in zip(first, second, strict=True) if a.read_bytes() != b.read_bytes()
    ]
    assert different == []
