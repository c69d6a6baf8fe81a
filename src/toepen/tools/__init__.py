"""Tools for measuring and studying toepen; none of them is needed to play. (The server's
benchmarks and the throwaway PostgreSQL and Redis are in the source tree's ``benchmarks/``.)

- :mod:`toepen.tools.arena`: duplicate tournaments between bots (``toepen arena``);
- :mod:`toepen.tools.bench`: engine speed against a bare reference loop (``toepen bench``);
- :mod:`toepen.tools.simulate`: random-play sessions and their statistics (``toepen simulate``);
- :mod:`toepen.tools.train` and :mod:`toepen.tools.reads`: expert's data files by self-play
  (``toepen train``).

The core (cards, rules, engine, view, record, narration, seeds) imports nothing from here.
"""
