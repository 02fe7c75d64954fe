"""docs/screens is what the code draws. The gallery, made afresh, must give exactly the committed files:
the same names, byte for byte (it is deterministic: test_gallery_deterministic.py)."""

from __future__ import annotations

from pathlib import Path

from companion.cli.gallery import write

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "docs" / "screens"
REGENERATE = "rm -r docs/screens && python3 dev.py run screens"


def test_docs_screens_are_what_the_gallery_draws_now(tmp_path: Path) -> None:
    fresh = tmp_path / "screens"
    write(fresh)
    made = {p.relative_to(fresh).as_posix(): p.read_bytes() for p in fresh.rglob("*.png")}
    kept = {p.relative_to(COMMITTED).as_posix(): p.read_bytes() for p in COMMITTED.rglob("*.png")}
    missing, stale = sorted(made.keys() - kept.keys()), sorted(kept.keys() - made.keys())
    changed = sorted(name for name in made.keys() & kept.keys() if made[name] != kept[name])
    assert len(made) > 100
    assert (missing, stale, changed) == ([], [], []), (
        f"docs/screens is out of date (not committed: {missing}; no longer drawn: {stale}; drawn differently: "
        f"{changed}). Regenerate it with `{REGENERATE}` and commit the result."
    )
