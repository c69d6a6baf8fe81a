"""The socket wing: one client's WebSocket (:mod:`.connection`) and uvicorn's WebSocket
protocol with the game's side door for frames (:mod:`.wire`). It reads the tables wing;
the messages it parses and encodes are the server's :mod:`~toepen.server.protocol`.
"""
