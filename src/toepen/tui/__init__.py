"""``toepen play``: the terminal game against bots (Textual), in five languages."""

from .session import PlayError, PlaySession

__all__ = ["PlayError", "PlaySession"]
