"""``python -m toepen.server``: the same as ``toepen serve``."""

if __name__ == "__main__":
    from .command import main

    main()
