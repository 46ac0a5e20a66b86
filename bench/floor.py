"""The stack's floor for bench/load.py: the least a WebSocket move service can do on this stack.

A minimal uvicorn + Starlette WebSocket endpoint that, per message, does one INSERT + COMMIT
through SQLAlchemy + psycopg (in a worker thread, as the project does) and replies. Whatever the
project does per move on top of this is its own cost.

Run: python bench/floor.py --port 8100 --database-url postgresql+psycopg://...
"""

from __future__ import annotations

import argparse

from anyio import to_thread
from sqlalchemy import Column, Integer, MetaData, Table, Text, create_engine, insert
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

metadata = MetaData()
messages = Table(
    "floor_messages",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("body", Text, nullable=False),
)


def make_app(database_url: str) -> Starlette:
    """The floor app on `database_url` (its table is created at start)."""
    engine = create_engine(database_url, pool_size=10, max_overflow=10)
    metadata.create_all(engine)

    def store(body: str) -> int:
        with engine.begin() as conn:  # one INSERT, one COMMIT
            return conn.execute(insert(messages).values(body=body)).inserted_primary_key[0]

    async def socket(ws: WebSocket) -> None:
        await ws.accept()
        try:
            while True:
                text = await ws.receive_text()
                row = await to_thread.run_sync(store, text)
                await ws.send_text(f'{{"type":"ack","row":{row}}}')
        except WebSocketDisconnect:
            return

    return Starlette(routes=[WebSocketRoute("/ws", socket)])


def main() -> None:
    """Serve the floor endpoint until killed."""
    import uvicorn

    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database-url", required=True)
    args = parser.parse_args()
    uvicorn.run(make_app(args.database_url), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
