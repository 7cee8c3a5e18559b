"""A TCP proxy that delays every chunk by a fixed time in each direction.

    python3 delay_proxy.py LISTEN_PORT TARGET_HOST TARGET_PORT DELAY_MS

Listens on 127.0.0.1:LISTEN_PORT; each connection is forwarded to
TARGET_HOST:TARGET_PORT, and every chunk read from either side is written to
the other DELAY_MS later, in order: a link with that one-way latency (no
bandwidth limit, no loss).  For test/bench/syncwait.sh, where the kernel has
no netem.
"""
import asyncio
import sys
import time


async def pump(reader, writer, delay):
    queue = asyncio.Queue()

    async def read():
        while True:
            data = await reader.read(65536)
            await queue.put((time.monotonic() + delay, data))
            if not data:
                return

    async def write():
        while True:
            due, data = await queue.get()
            wait = due - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    await asyncio.gather(read(), write())


def main():
    port, host, target, delay = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]),
                                 float(sys.argv[4]) / 1000)

    async def handle(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection(host, target)
        await asyncio.gather(pump(client_reader, server_writer, delay),
                             pump(server_reader, client_writer, delay),
                             return_exceptions=True)

    async def serve():
        server = await asyncio.start_server(handle, '127.0.0.1', port)
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


if __name__ == '__main__':
    main()
