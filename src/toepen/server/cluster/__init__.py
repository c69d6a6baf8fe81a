"""The cluster wing (``--redis``): many processes, one game; leases, relay and frames over
Redis (:mod:`.core`). Only the application's start-up (and the metrics that report it)
import it; the tables wing sees it through :mod:`toepen.server.tables.ports` alone.
"""
