"""Toepen for researchers: a PettingZoo AEC environment and an OpenSpiel game.

Install the extra (``uv sync --extra rl`` or ``pip install toepen[rl]``), then::

    from toepen.rl.pettingzoo import env          # PettingZoo AEC environment
    import toepen.rl.openspiel                    # registers "python_toepen" with pyspiel

This package imports neither PettingZoo nor OpenSpiel by itself; ``import toepen`` never
does. See ``docs/research.md``.
"""

from .encoding import HistoryEncoder, ObservationEncoder, action_mask

__all__ = ["HistoryEncoder", "ObservationEncoder", "action_mask"]
