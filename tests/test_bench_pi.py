"""bench pi's model of a press: the driver's writer sends a box while the next is converted, so a box's
wire runs beside the Python that comes after its hand-over, never beside the Python of a write, and a press is
never shorter than its CPU."""

from __future__ import annotations

from benchmarks.pi import press_to_glass_on, pushed


def wire_ms(sent: int, transfers: int) -> float:
    """1 ms a kilobyte, no cost a transfer: easy sums."""
    return sent / 1000


def test_a_box_goes_out_while_the_next_is_converted() -> None:
    # handed over at 5 and 10 ms of CPU, 4 ms of wire each: the first is out at 9, the second at 14 (one after the
    # other, the press would take 10 + 8 = 18)
    assert pushed([(5.0, 0.0, 4000, 1), (10.0, 0.0, 4000, 1)], 1.0, wire_ms) == 14.0


def test_a_box_waits_for_the_one_before_it() -> None:
    # 10 ms of wire each, the second handed over at 2 ms: it waits for the first (out at 11), then its own 10
    assert pushed([(1.0, 0.0, 10_000, 1), (2.0, 0.0, 10_000, 1)], 1.0, wire_ms) == 21.0


def test_the_python_of_a_write_holds_everything_up() -> None:
    # each write's own Python (1 ms) runs before its wire and the step waits for it (one interpreter): 5 + 1, out
    # at 10; then 5 more ms of the step from 6 to 11, 1 of Python, out at 16; all at 2x on a slower machine
    windows = [(5.0, 1.0, 4000, 1), (10.0, 1.0, 4000, 1)]
    assert pushed(windows, 1.0, wire_ms) == 16.0
    assert pushed(windows, 2.0, lambda sent, transfers: 2 * wire_ms(sent, transfers)) == 32.0


def test_a_press_is_never_shorter_than_its_cpu_and_adds_its_card_and_its_other_writes() -> None:
    measured = {
        "clock": 32_000_000,
        "cpu": [30.0, 3.0],
        "bytes": [100, 4100],
        "transfers": [1, 2],
        "syncs": [[], [("journal", 2)]],
        "windows": [[], [(1.0, 0.0, 4000, 1)]],
    }
    no_card = press_to_glass_on(measured, "Pi 4 B", [1.0, 1.0], None)
    card = press_to_glass_on(measured, "Pi 4 B", [1.0, 1.0], 4.096)
    wire = 8 / 31.25 / 1000  # ms a byte at the Pi 4's 31.25 MHz
    assert no_card[0] == 30.0 + 100 * wire + 0.08, "all CPU, then the write made outside any box"
    assert abs(no_card[1] - (3.0 + 100 * wire + 0.08)) < 1e-9, "the box out at 1 + its wire, before the CPU ends"
    assert abs(card[1] - no_card[1] - 2.0) < 1e-9, "2 blocks at 4.096 MB/s: 1 ms each"
