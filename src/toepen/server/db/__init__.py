"""The db wing, the database: the tables on disk (:mod:`.store`: SQLAlchemy models and
queries, SQLite or PostgreSQL), the storage thread that commits them in groups off the
event loop (:mod:`.commit`), and the Alembic migrations (``migrations/``). It imports no
other wing.
"""
