"""Smart stacking against rejection: processor time of ``auto`` over ``rejection``.

The unit tests count a plan's survey work instead of timing it; this prints the times,
measured in the same process, for two scripts whose conditions pass rarely.

    python bench/bench_dealer_strategies.py
"""

from __future__ import annotations

import time

from croupier.simulate import Simulation, parse_script

SCRIPTS = {
    "1NT and a 6-card overcall": (
        "nt = shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 15 "
        "and hcp(north) <= 17\n"
        "ov = hcp(east) >= 8 and hcp(east) <= 16 and (spades(east) >= 6 or hearts(east) >= 6)\n"
        "condition nt and ov\n"
    ),
}


def main() -> None:
    for name, text in SCRIPTS.items():
        script = parse_script(text)
        times = {}
        for strategy in ("auto", "rejection"):
            started = time.process_time()
            result = Simulation(script, seed="bench", strategy=strategy).run(produce=1000)
            times[strategy] = time.process_time() - started
            assert result.produced == 1000
        ratio = times["auto"] / times["rejection"]
        print(
            f"{name}: auto {times['auto']:.2f} s, rejection {times['rejection']:.2f} s "
            f"(auto/rejection {ratio:.2f}; target at most 2)"
        )


if __name__ == "__main__":
    main()
