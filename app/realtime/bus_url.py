"""What a bus URL means: the backend (`memory://` when there is none, `redis://`, or
`redis+cluster://`) and the channel names' prefix."""

from __future__ import annotations

from urllib.parse import urlsplit

from app.infra.redis_urls import is_cluster_url
from app.realtime.bus import Bus, MemoryBus
from app.realtime.cluster_bus import ClusterBus
from app.realtime.redis_bus import RedisBus


def create_bus(redis_url: str | None) -> Bus:
    """The bus on the shared Redis (`Settings.shared_redis_url`): sharded on a Redis Cluster,
    plain pub/sub on one Redis; in-process without one."""
    if not redis_url:
        return MemoryBus()
    return ClusterBus(redis_url) if is_cluster_url(redis_url) else RedisBus(redis_url)


def channel_prefix(url: str | None) -> str:
    """Channel names per Redis database number, so test and dev servers sharing a Redis (pub/sub
    ignores database numbers) do not hear each other."""
    if not url:
        return "seadragons:"
    if is_cluster_url(url):
        return "seadragons:db0:"  # a cluster has one database
    path = urlsplit(url).path.strip("/") or "0"
    return f"seadragons:db{path}:"
