"""Redis URLs: one Redis (`redis://`, `rediss://`, `unix://`) or a Redis Cluster
(`redis+cluster://[user:password@]host:port,host:port,...`, the form the `limits` library reads
too), and the readiness check's client for either."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urlsplit

CLUSTER_SCHEME = "redis+cluster"


def is_cluster_url(url: str | None) -> bool:
    """A Redis Cluster URL (`redis+cluster://`)."""
    return bool(url) and urlsplit(url or "").scheme == CLUSTER_SCHEME


def cluster_nodes(url: str) -> tuple[list[tuple[str, int]], str | None, str | None]:
    """The nodes to start from (any one that answers gives the slot map) and the credentials."""
    parts = urlsplit(url)
    if parts.scheme != CLUSTER_SCHEME:
        raise ValueError(f"not a {CLUSTER_SCHEME}:// URL")
    netloc = parts.netloc
    username = password = None
    if "@" in netloc:
        auth, netloc = netloc.rsplit("@", 1)
        user, _, secret = auth.partition(":")
        username, password = unquote(user) or None, unquote(secret) or None
    nodes = []
    for item in netloc.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"cluster node {item!r}: use host:port")
        nodes.append((host.strip("[]"), int(port)))
    return nodes, username, password


class _ClusterPing:
    """PING a Redis Cluster for /readyz. The cluster client is made on first use, not at start:
    making one asks a node for the slot map, and a server must start while Redis is away."""

    def __init__(self, url: str, timeout_s: float) -> None:
        self.url, self.timeout_s = url, timeout_s
        self._client: Any = None

    def ping(self) -> bool:
        from redis.cluster import ClusterNode, RedisCluster

        if self._client is None:
            nodes, username, password = cluster_nodes(self.url)
            self._client = RedisCluster(
                startup_nodes=[ClusterNode(host, port) for host, port in nodes],
                username=username,
                password=password,
                socket_timeout=self.timeout_s,
                socket_connect_timeout=self.timeout_s,
            )
        return bool(self._client.ping())


def async_client(url: str, **options: Any) -> Any:
    """An asyncio Redis client for `url`: a cluster client (keys routed by hash slot) for a
    `redis+cluster://` URL, a plain one otherwise. It connects on first use."""
    if is_cluster_url(url):
        from redis.asyncio.cluster import ClusterNode, RedisCluster

        nodes, username, password = cluster_nodes(url)
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in nodes],
            username=username,
            password=password,
            **options,
        )
    import redis.asyncio as redis

    return redis.from_url(url, **options)


def readiness_client(url: str | None, timeout_s: float) -> Any:
    """Something with `ping()` for the readiness check, or None without a shared Redis."""
    if url is None:
        return None
    if is_cluster_url(url):
        return _ClusterPing(url, timeout_s)
    import redis

    return redis.Redis.from_url(url, socket_timeout=timeout_s, socket_connect_timeout=timeout_s)
