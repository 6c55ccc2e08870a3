"""A random policy through warren levels in MiniGrid: trains nothing, measures the environment.

    python examples/minigrid_random.py maze --count 1000 --set maze.width=8 --set maze.height=8
    python examples/minigrid_random.py profiles/dmg.toml --count 100
    python examples/minigrid_random.py runs/grammar.arrow            # an archive of `warren generate`

Each episode is one level (``warren.minigrid.WarrenEnv`` lays out the next level at every
reset); the policy samples MiniGrid's action space until the goal is reached or the episode is
truncated (``--max-steps``, default 4 steps per square of the level's shortest path). Prints
the levels played, the steps taken, the goals reached and the levels (and steps) per second.
Needs the extra ``warren[minigrid]``.
"""

from __future__ import annotations

import argparse
import time
from typing import List, Optional

from warren.minigrid import WarrenEnv


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="a kind (maze, dmg, regions, grammar, map), a profile .toml or an .arrow archive")
    parser.add_argument("--count", type=int, default=1000, help="levels to play (default 1000)")
    parser.add_argument("--seed", type=int, default=None, help="master seed of a kind or profile (default 0)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="profile override (repeatable)")
    parser.add_argument("--max-steps", type=int, default=None, help="steps per episode (default 4 x path_length)")
    parser.add_argument("--policy-seed", type=int, default=0, help="seed of the random policy (default 0)")
    args = parser.parse_args(argv)

    env = WarrenEnv(args.source, seed=args.seed, set=args.set or None, max_steps=args.max_steps)
    env.action_space.seed(args.policy_seed)
    steps = goals = 0
    began = time.perf_counter()
    for _ in range(args.count):
        env.reset()
        while True:
            _, _, terminated, truncated, _ = env.step(env.action_space.sample())
            steps += 1
            if terminated or truncated:
                goals += int(terminated)
                break
    elapsed = time.perf_counter() - began
    env.close()
    print(
        f"levels {args.count}  steps {steps}  goals reached {goals} ({100 * goals / max(args.count, 1):.1f}%)  "
        f"{args.count / elapsed:.1f} levels/s  {steps / elapsed:.0f} steps/s  ({env.kind}, {elapsed:.2f} s)"
    )


if __name__ == "__main__":
    main()
