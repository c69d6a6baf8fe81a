"""Alembic environment: the server passes its open connection in ``config.attributes``."""

from alembic import context


def run() -> None:
    """Run the migrations on the connection the caller opened."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=None)
    with context.begin_transaction():
        context.run_migrations()


try:
    context.config  # noqa: B018 - only there while Alembic runs this file
except NameError:  # imported by something else (a doctest collector): nothing to do
    pass
else:
    run()
