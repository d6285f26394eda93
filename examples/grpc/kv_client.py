"""A Python client of the C++ key-value service of kv_store.cpp: grpcio (PyPI) carries the calls,
the bifrons package (python/) encodes requests and decodes responses with the schemas the server
exported. No .proto file on either side.

    python kv_client.py PATH/TO/kv_store

starts `kv_store --serve SCHEMA_DIR`, calls each method, checks the answers (exit status 1 if one
is wrong), and stops the server by closing its standard input. Every call has a deadline.
"""

import os
import subprocess
import sys
import tempfile

import bifrons
import grpc

DEADLINE = 10  # seconds, for every call


class Store:
    """The methods of kv.Store, as gRPC names them, with the schemas of their messages."""

    def __init__(self, channel: grpc.Channel, schema_dir: str):
        def schema(name):
            return bifrons.load_schema(os.path.join(schema_dir, name + ".schema.json"))

        # Responses are read with the library's limits; a server is a peer too.
        limits = bifrons.ReadOptions(max_alloc_bytes=1 << 20)

        def method(kind, name, request, response):
            return kind(
                "/kv.Store/" + name,
                request_serializer=schema(request).encode,
                response_deserializer=lambda data, s=schema(response): s.decode(data, limits),
            )

        self.put = method(channel.unary_unary, "Put", "PutRequest", "PutReply")
        self.get = method(channel.unary_unary, "Get", "GetRequest", "GetReply")
        self.scan = method(channel.unary_stream, "Scan", "ScanRequest", "Entry")
        self.put_many = method(channel.stream_unary, "PutMany", "PutRequest", "PutReply")
        self.get_many = method(channel.stream_stream, "GetMany", "GetRequest", "GetReply")
        # The same method with bytes as they are: what a broken or hostile client sends.
        self.get_raw = channel.unary_unary("/kv.Store/Get")


def run(store: Store) -> list:
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print("FAILED:", what)

    versions = [store.put({"key": k, "value": v}, timeout=DEADLINE)["version"]
                for k, v in [("fruit/apple", "red"), ("fruit/fig", "purple"), ("veg/leek", "green")]]
    check(versions == [1, 2, 3], "put versions %r" % versions)

    reply = store.get({"key": "fruit/fig"}, timeout=DEADLINE)
    check(reply == {"found": True, "value": "purple"}, "get fruit/fig: %r" % reply)
    reply = store.get({"key": "nothing"}, timeout=DEADLINE)
    check(reply == {"found": False, "value": ""}, "get nothing: %r" % reply)

    entries = list(store.scan({"prefix": "fruit/", "limit": 0}, timeout=DEADLINE))
    check([e["key"] for e in entries] == ["fruit/apple", "fruit/fig"], "scan: %r" % entries)
    print("scan fruit/:", " ".join(e["key"] for e in entries))

    # A stream of puts, one reply after the last; a stream of gets, one reply each.
    puts = [{"key": "nut/almond", "value": "brown"}, {"key": "nut/pecan", "value": "brown"}]
    reply = store.put_many(iter(puts), timeout=DEADLINE)
    check(reply == {"version": 5}, "put_many: %r" % reply)
    replies = list(store.get_many(iter([{"key": "nut/pecan"}, {"key": "nothing"}]), timeout=DEADLINE))
    check(replies == [{"found": True, "value": "brown"}, {"found": False, "value": ""}], "get_many: %r" % replies)

    # The handler's own status.
    try:
        store.put({"key": "", "value": "x"}, timeout=DEADLINE)
        check(False, "put with an empty key succeeded")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and e.details() == "empty key", "empty key: %r" % e)

    # Bad bytes: the server answers with the library's error text and offset, and keeps serving.
    try:
        store.get_raw(b"\x7f\x01", timeout=DEADLINE)
        check(False, "bad bytes were accepted")
    except grpc.RpcError as e:
        check(e.code() == grpc.StatusCode.INVALID_ARGUMENT and e.details().startswith("bifrons: ")
              and "at byte" in e.details(), "bad bytes: %s %s" % (e.code(), e.details()))
        print("bad bytes:", e.code(), e.details())
    reply = store.get({"key": "veg/leek"}, timeout=DEADLINE)
    check(reply["value"] == "green", "get after bad bytes: %r" % reply)
    return failures


def main() -> int:
    if len(sys.argv) != 2:
        print("usage: kv_client.py PATH/TO/kv_store", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as schema_dir:
        server = subprocess.Popen([sys.argv[1], "--serve", schema_dir], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        try:
            line = server.stdout.readline()  # "port N", after the schemas are written
            if not line.startswith("port "):
                print("FAILED: the server did not start:", repr(line))
                return 1
            with grpc.insecure_channel("127.0.0.1:" + line.split()[1]) as channel:
                failures = run(Store(channel, schema_dir))
        finally:
            server.stdin.close()
            try:
                server.wait(timeout=DEADLINE)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    if server.returncode != 0:
        failures.append("server exit status %d" % server.returncode)
    print("ok" if not failures else "%d failed" % len(failures))
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
