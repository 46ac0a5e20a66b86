"""Server settings, read from `SEADRAGONS_*` environment variables."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

SECRET_FILE = "secret_key"
SQLITE_FILE = "seadragons.db"


# What `redis_url` may name a Redis by; redis+cluster://host:port,host:port,... names a Redis
# Cluster (the bus then uses sharded pub/sub, app/realtime/cluster_bus.py ClusterBus).
REDIS_SCHEMES = ("redis", "rediss", "unix", "redis+cluster")


class Settings(BaseSettings):
    """Everything the server reads from its environment; unset values get safe local defaults."""

    model_config = SettingsConfigDict(env_prefix="SEADRAGONS_", extra="ignore")

    data_dir: Path = Path("./data")
    # None: a SQLite file in data_dir. Plain postgresql:// URLs are mapped to psycopg 3.
    database_url: str | None = None
    # Postgres connections a process keeps open, and how many more it may open at a peak (each
    # closed again when returned). Fewer kept than the requests and socket moves at once means
    # a new connection, and a new Postgres backend, for nearly every use under load.
    db_pool_size: int = Field(default=20, ge=1)
    db_max_overflow: int = Field(default=10, ge=0)
    # Postgres connections of their own on which socket moves are written from the event loop
    # (app/infra/async_move_write.py); 0: every move is written from a worker thread.
    db_loop_connections: int = Field(default=4, ge=0)
    # Allocations that start a collection of the garbage collector's young generation (Python's
    # own default is 700). Every move leaves thousands of live containers (states, documents)
    # that the default collects and promotes again and again; see docs/benchmarks.md.
    gc_young_threshold: int = Field(default=10_000, ge=100)
    # None or memory://: one process (in-memory broadcast and rate limits). redis://, rediss://
    # or unix://: the Redis every instance shares (see `shared_redis_url`); redis+cluster://h:p,...
    # a Redis Cluster (sharded pub/sub for the bus).
    redis_url: str | None = None
    # None: generated once and kept in data_dir, so sessions survive restarts.
    secret_key: str | None = None
    # Comma-separated list (or JSON list) of origins allowed to call the API from a browser.
    allowed_origins: Annotated[list[str], NoDecode] = []
    # Set in production behind HTTPS so browsers only send the cookie encrypted (implied by an
    # https PUBLIC_URL).
    cookie_secure: bool = False
    # The address friends use to reach this server (e.g. https://dragons.example.org): invite
    # links are built from it, and its origin is allowed to make state-changing requests.
    public_url: str | None = None
    # Addresses of reverse proxies whose X-Forwarded-For / -Proto headers are believed
    # (uvicorn's forwarded_allow_ips: comma-separated IPs or networks, "*" for any). Empty: none,
    # so a client cannot pick its own address for the per-address limits.
    forwarded_allow_ips: str = ""
    session_days: int = 30
    # Argon2id's cost per password hash (sign-up, sign-in, a new password): passes over memory.
    # argon2-cffi's defaults (RFC 9106's second recommendation), about 0.15 s here; a stored
    # hash of another cost is hashed again at this one at the next sign-in.
    password_hash_time_cost: int = Field(3, ge=1, le=20)
    password_hash_memory_kib: int = Field(65536, ge=1024, le=4 * 1024 * 1024)
    max_body_bytes: int = 64 * 1024
    # Apply pending Alembic migrations when the app is created.
    migrate_on_start: bool = True
    # Rate limits, in the `limits` library's notation ("10/minute;100/day"; empty: no limit),
    # counted in memory or, with REDIS_URL, in Redis for every instance. Failed sign-ins are
    # counted per username and address, and per address, so nobody elsewhere can lock an
    # account's owner out.
    login_limits_per_user_address: str = "10/minute;100/day"
    login_limits_per_address: str = "30/minute;300/day"
    # New guests and new accounts per client address.
    guest_limits_per_address: str = "60/minute;600/day"
    account_limits_per_address: str = "20/hour;100/day"
    # Chat lines per user, across all their sockets and instances (used by app/realtime).
    chat_limits_per_user: str = "8/10seconds;40/minute"
    # Open (not yet started) tables one user may host at once (rematch offers included), and
    # live games one host may hold a seat in, and one address may have started, when a game
    # starts (0: no cap). Bots cost CPU: these bound what one guest can set running.
    max_open_tables_per_user: int = 5
    max_live_games_per_user: int = 20
    max_live_games_per_address: int = 40
    # Placement previews (GET /api/games/{id}/outcomes): a card with more legal placements
    # than this is refused with 413 too_many_outcomes rather than applied that many times.
    outcomes_max: int = 2000
    # Why not here (GET /api/games/{id}/explain): the longest action text one request may
    # carry, and the requests per user (the ghost asks when it rests on an illegal spot).
    explain_action_max_chars: int = 1000
    explain_limits_per_user: str = "10/second;600/minute"
    # Hints at unrated tables (POST /api/games/{id}/hint): the expert's thinking time and its
    # most search rounds per hint (in a bot worker process, app/infra/bot_pool.py), and the
    # hints per user. The answers are kept per process (positions), so asking again gets the
    # same hint at no cost even when the budget, not the rounds, ended the search.
    hint_budget_seconds: float = 1.0
    hint_rounds: int = 12
    hint_cache_positions: int = 256
    hint_limits_per_user: str = "6/minute;60/hour"
    # Replays of finished games (GET /api/games/{id}/replay) kept built, per process.
    replay_cache_games: int = 32
    # Retry-After (seconds) sent with 503 `unavailable` while the database does not answer.
    unavailable_retry_after_seconds: int = 5
    # Logs: "text" (readable, the default) or "json" (one object per line, with the request
    # id, game id and user id where known).
    log_format: Literal["text", "json"] = "text"
    log_level: str = "INFO"
    # Prometheus metrics are never open on the public port. METRICS_PORT: a separate listener
    # (`seadragons serve` only) on METRICS_HOST serving /metrics, for the scraper on a private
    # network; the proxy in front never routes to it. METRICS_TOKEN: /metrics on the public port
    # too, for `Authorization: Bearer <token>` only. Neither: /metrics is 404 everywhere.
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    metrics_token: str | None = None
    # On SIGTERM: stop accepting, then wait this long for requests in flight to finish.
    shutdown_grace_seconds: float = 10.0
    # How often an open lobby page re-reads its lists (the page's own timer; polling, so a
    # lobby open all day costs one small request set per interval).
    lobby_refresh_seconds: float = Field(default=10.0, gt=0)
    # Bots (app/services/botseats/runner.py): the pause before a bot's move so people can follow it,
    # the expert's thinking time per decision (None: the bot's default), and how often every
    # instance looks for bot turns nobody is driving (e.g. after another instance died).
    bot_delay_seconds: float = 0.8
    bot_budget_seconds: float | None = None
    bot_sweep_seconds: float = 30.0
    # Where bots think (app/infra/bot_pool.py): worker processes (None: half the cores, at
    # least 1; 0: threads of the server process) at this nice level, one decision each at once.
    bot_processes: int | None = None
    bot_nice: int = 10
    # A game only bots play is paused once no seat's owner has been seen for this long (0:
    # never), and resumes within BOT_RESUME_CHECK_SECONDS of one coming back.
    bot_pause_after_seconds: float = 120.0
    bot_resume_check_seconds: float = 2.0
    # Open sockets at once, per user (many tabs and games, not a flood), per address for
    # anonymous spectators (several people may share one address), and per address for
    # signed-in users (a school behind one address; not one guest per tab). Per server process.
    max_sockets_per_user: int = 20
    max_sockets_per_address: int = 100
    max_signed_in_sockets_per_address: int = 300
    # How often an open socket's session is checked again (sign-outs close sockets within
    # this even when the bus between instances is away).
    session_recheck_seconds: float = 5.0
    # Real-time (app/realtime): how often every room's version is compared with the database
    # (the bound on catching up after a lost notice, docs/protocol.md), how often presence is
    # re-announced and seated sockets mark their players seen, and the memory for action ids.
    room_check_seconds: float = 2.0
    socket_heartbeat_seconds: float = 15.0
    recent_action_bytes: int = 4 * 1024 * 1024
    # WebSocket permessage-deflate: about 3x fewer bytes on the wire, but a compression context
    # of ~45 KiB per socket; off by default (a proxy in front may compress instead).
    ws_compression: bool = False
    # Per socket: frames queued for a slow reader, messages and chat lines per second (bursts).
    ws_queue_frames: int = 256
    ws_messages_per_second: float = 50.0
    ws_message_burst: float = 100.0
    ws_chats_per_second: float = 0.5
    ws_chat_burst: float = 5.0
    # How long a seated player must be unseen before the host may hand their seat to a bot.
    bot_grace_seconds: float = 60.0
    # Turn clocks (app/services/tables/clocks.py, deadlines.py): how often every instance looks for
    # turns that ran out (the precision of a timeout), the bot that plays a timed-out turn, how
    # many timeouts in a row hand the seat to that bot, and the longest time a clock may give.
    clock_sweep_seconds: float = 1.0
    clock_bot_level: str = "greedy"
    clock_timeouts_to_bot: int = 2
    clock_max_seconds: int = 30 * 86400
    # The most extra time a table may let the player to act ask for, once per turn (a clock's
    # `extension`, WCAG 2.2.1: a time limit the player can extend).
    clock_max_extension_seconds: int = 3600
    # Game review (app/review): rounds of the expert's rollouts per decision (the search budget;
    # a count, not seconds, so the same game always gets the same analysis) and the drops in
    # winning chance, in percentage points, that label a move.
    review_rounds: int = 2
    # A cheaper search (docs/review.md, "Budget and determinism"): each rollout stops after
    # REVIEW_ROLLOUT_PLIES actions (80: the expert's own length, to after the mover's next
    # placement), each rollout step scores REVIEW_ROLLOUT_SAMPLE of the legal actions (0: all),
    # and after a round a candidate REVIEW_PRUNE_POINTS of winning chance behind the leader is not
    # played out again (inf: never). Cutting plies alone read the leaf worse (docs/benchmarks.md,
    # "A cheaper search"); the default cut is REVIEW_ROLLOUT_TURNS below, with the fitted leaf.
    review_rollout_plies: int = Field(default=80, ge=1)
    review_rollout_sample: int = Field(default=0, ge=0)
    review_prune_points: float = Field(default=float("inf"), gt=0)
    # How a rollout's end is read: "static" (the static evaluation's softmax, the expert's) or
    # "fitted" (the winning-chance model fitted to who won, app/review/leaf.py), which makes
    # turn-start rollouts as well calibrated as the expert's full ones at a fraction of the CPU
    # (docs/benchmarks.md, "A leaf fitted to who won").
    review_leaf: Literal["static", "fitted"] = "fitted"
    # A rollout also stops once REVIEW_ROLLOUT_TURNS turns have begun (1: at the start of the
    # next seat's turn, where the fitted leaf model was fitted; 0: never on that account); only
    # where that model covers the table (the static softmax needs the expert's full rollouts).
    review_rollout_turns: int = Field(default=1, ge=0)
    review_inaccuracy_points: float = 5.0
    review_mistake_points: float = 10.0
    review_blunder_points: float = 15.0
    # Analyses running at once per server process (job workers, each with a worker process
    # niced by REVIEW_NICE; 0: this process runs none).
    review_concurrency: int = 1
    review_nice: int = 15
    # The address players reach the server at, for links in emails (e.g. https://example.org).
    public_url: str | None = None
    # "Your turn" emails (app/services/notices/mailer.py, notices.py). None: no emails at all.
    # smtp://user:pass@host:587 (STARTTLS when offered; ?starttls=require|never), smtps://... (TLS).
    smtp_url: str | None = None
    smtp_from: str = "Sea Dragons Online <noreply@localhost>"
    smtp_timeout_seconds: float = 10.0
    # A private CA for the SMTP server's certificate (None: the system's CAs).
    smtp_ca_file: str | None = None
    # The sender: how often it looks at the outbox, how long a turn notice waits (a player back
    # at the table within it gets none), tries per email, the first retry's back-off (doubling)
    # and how many emails one pass claims.
    mail_sweep_seconds: float = 2.0
    notice_delay_seconds: float = 5.0
    mail_max_attempts: int = 5
    mail_retry_seconds: float = 30.0
    mail_batch: int = 20
    # Sent, skipped and failed emails are kept this long (to answer "did it go out?"), then
    # deleted by the sender, a bounded batch per pass: the outbox does not grow for ever.
    mail_keep_days: float = 7.0
    mail_prune_batch: int = 1000
    # How long an email verification link works, how many a user may ask for per hour, and how
    # many one address may receive per day from all accounts together.
    email_verify_hours: float = 48.0
    email_verify_per_hour: int = 3
    email_verify_per_recipient_per_day: int = 5

    # Background jobs (app/infra/jobs.py): workers per server process (0: none here; another
    # instance or `seadragons jobs run` does them), how often an idle worker looks, how long a
    # claim lasts before another worker may take the job over, and the first retry's back-off.
    jobs_workers: int = 1
    jobs_poll_seconds: float = 1.0
    jobs_lease_seconds: float = 120.0
    jobs_retry_seconds: float = 10.0

    # Ratings (app/services/ratings/results.py): a rating stays provisional (marked, and off the
    # leaderboard) while its sigma is above this; rows per leaderboard page and per page of
    # finished games; recent games and rating history points on a profile.
    rating_provisional_sigma: float = 5.0
    leaderboard_page_size: int = 50
    history_page_size: int = 20
    profile_recent_games: int = 10
    profile_history_points: int = 200

    # Watching (app/services/watching/watch.py, app/realtime/watch_channel.py): the /watch channel
    # sends at most one update per game per WATCH_TICK_SECONDS (the throttle: at least 1 s);
    # it lists the WATCH_MAX_GAMES most interesting live public games, and one process serves
    # at most WATCH_MAX_SOCKETS watch sockets (they also count in the per-address socket caps).
    watch_tick_seconds: float = Field(default=1.0, ge=1.0)
    watch_max_games: int = Field(default=100, ge=1, le=1000)
    watch_max_sockets: int = Field(default=5000, ge=1)
    # The spectator delay of rated live tables (app/services/watching/spectator_delay.py): at most
    # this
    # many moves or seconds behind; delayed spectator rooms are advanced every
    # SPECTATOR_DELAY_TICK_SECONDS (past states rebuilt for them share the state cache).
    spectator_delay_max_moves: int = Field(default=20, ge=1)
    spectator_delay_max_seconds: int = Field(default=600, ge=1)
    spectator_delay_tick_seconds: float = Field(default=0.5, gt=0)
    # Tutorials (/api/learn, app/tutorial): the most answers (the learner's moves so far) one
    # request may send; every lesson has fewer steps, and each answer is one engine move replayed.
    learn_answers_max: int = 64
    # Slow games that survive real life (app/services/tables/vacations.py, clocks.py "daily"):
    # whole vacation days per account and calendar year (UTC; 0: no vacations); a daily table's
    # default and longest grace after a missed deadline before a bot takes the seat; and the
    # default and largest time bank a daily seat may carry over (seconds).
    vacation_days_per_year: int = Field(default=30, ge=0, le=366)
    clock_daily_grace_seconds: int = Field(default=86400, ge=0)
    clock_daily_max_grace_seconds: int = Field(default=7 * 86400, ge=0)
    clock_daily_bank_cap_seconds: int = Field(default=2 * 86400, ge=0)
    clock_daily_max_bank_cap_seconds: int = Field(default=7 * 86400, ge=0)
    # Quick match ("Play now", app/services/matching): an entry waits MATCH_ENTRY_SECONDS unless
    # the waiting page renews it (it does every few seconds, so closing the page ends the wait);
    # after MATCH_BOTS_AFTER_SECONDS the waiter may start at once with bots (of
    # MATCH_BOT_LEVEL) in the empty seats, at a table of MATCH_ANY_PLAYERS_WITH_BOTS when they
    # chose "any". One user waits in at most MATCH_MAX_POOLS_PER_USER pools, one address has
    # at most MATCH_MAX_ENTRIES_PER_ADDRESS entries waiting; entries made are rate-limited per
    # user and per address. The clocks of the two paces. A player who left (or timed out of)
    # MATCH_QUITS_FOR_DELAY games within MATCH_QUIT_WINDOW_HOURS waits MATCH_QUIT_DELAY_SECONDS
    # before anyone is matched with them, once more per further quit, at most
    # MATCH_QUIT_DELAY_MAX_SECONDS.
    match_entry_seconds: float = Field(default=30.0, gt=0)
    match_bots_after_seconds: float = Field(default=60.0, ge=0)
    match_bot_level: str = "greedy"
    match_any_players_with_bots: int = Field(default=3, ge=2, le=5)
    match_max_pools_per_user: int = Field(default=3, ge=1)
    match_max_entries_per_address: int = Field(default=30, ge=1)
    match_limits_per_user: str = "20/minute;300/hour"
    match_limits_per_address: str = "60/minute;1000/hour"
    match_live_initial_seconds: int = Field(default=600, ge=1)
    match_live_per_turn_seconds: int = Field(default=10, ge=0)
    match_daily_seconds: int = Field(default=86400, ge=60)
    match_quits_for_delay: int = Field(default=3, ge=1)
    match_quit_window_hours: float = Field(default=72.0, gt=0)
    match_quit_delay_seconds: float = Field(default=60.0, ge=0)
    match_quit_delay_max_seconds: float = Field(default=600.0, ge=0)

    # Roles and review requests (app/roles.py, app/worker.py, app/services/reviews/requests.py).
    # ROLE: what `seadragons serve` runs: "all" (HTTP, sockets and the background work: bots,
    # turn deadlines, mail, jobs, analyses; the one-command default) or "web" (HTTP and sockets
    # only: `seadragons worker` processes do the rest). `seadragons worker` is always "worker".
    role: Literal["all", "web"] = "all"
    # A worker holds a bot's turn this long (its lease in Redis) while deciding it; a killed
    # worker's turn is taken by another within this plus BOT_SWEEP_SECONDS.
    worker_turn_lease_seconds: float = Field(default=30.0, gt=0)
    # Analyses waiting or running at once, in all (a request past it: 503 `review_queue_full`),
    # and per requesting user (past it: 429 `review_user_limit`).
    review_queue_max: int = Field(default=20, ge=1)
    review_per_user: int = Field(default=2, ge=1)
    # A requester polling their replay counts as watching for this long after each poll; the
    # analyses of watched games are claimed first.
    review_watch_seconds: float = Field(default=30.0, gt=0)
    # Finished rated games are analysed without a request while fewer than this many analyses
    # wait (0: only on request). Off by default: one analysis still costs about 10 s of CPU (a
    # 4-player expansion game; docs/benchmarks.md), a sixth of a core at a game a minute.
    review_auto_rated_below: int = Field(default=0, ge=0)
    # The expected wait told to a requester: this many seconds of work per analysis ahead (a
    # 4-player expansion review takes 9 to 13 s of CPU, a worker's niced process more on a
    # busy machine).
    review_expected_seconds: float = Field(default=20.0, gt=0)

    # Web Push (app/services/notices/push.py, devices.py): "your turn" on a device with the tab
    # closed. VAPID_PRIVATE_KEY: the server's signing key (PEM, or the raw key base64url); unset:
    # generated once into data_dir (`vapid_private_key.pem`). VAPID_SUBJECT: the contact the push
    # services see (mailto: or https:; unset: PUBLIC_URL, else a mailto: at localhost). A push
    # waits PUSH_TIMEOUT_SECONDS for the push service, is tried PUSH_MAX_ATTEMPTS times through
    # the job queue (back-off JOBS_RETRY_SECONDS, doubling), and a notice sent by push is also
    # emailed after PUSH_EMAIL_AFTER_SECONDS if the turn is still theirs (unset: never).
    # Devices: at most PUSH_MAX_DEVICES_PER_USER stored, new subscriptions limited per user and
    # per address; a subscription's JSON at most PUSH_SUBSCRIPTION_MAX_BYTES. Endpoints must be
    # https on a public address; PUSH_ALLOW_INSECURE (tests only) lets http and loopback through.
    vapid_private_key: str | None = None
    vapid_subject: str | None = None
    push_timeout_seconds: float = Field(default=10.0, gt=0)
    push_max_attempts: int = Field(default=4, ge=1)
    push_email_after_seconds: float | None = None
    push_max_devices_per_user: int = Field(default=10, ge=1)
    push_subscribe_limits_per_user: str = "10/hour;30/day"
    push_subscribe_limits_per_address: str = "30/hour;200/day"
    push_subscription_max_bytes: int = Field(default=2048, ge=256)
    push_allow_insecure: bool = False

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: object) -> object:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("["):
                import json

                return json.loads(text)
            return [part.strip() for part in text.split(",") if part.strip()]
        return value

    @field_validator("redis_url", mode="before")
    @classmethod
    def _check_redis_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip() or None
        if isinstance(value, str) and urlsplit(value).scheme not in (*REDIS_SCHEMES, "memory"):
            raise ValueError(
                "use memory:// or a Redis URL (redis://, rediss://, unix://, redis+cluster://)"
            )
        return value

    @property
    def shared_redis_url(self) -> str | None:
        """The Redis URL that the bus, the rate limits and /readyz all use, or None when this
        process is on its own (unset, or memory://). The one reading of `redis_url`."""
        url = self.redis_url
        return url if url is not None and urlsplit(url).scheme in REDIS_SCHEMES else None

    @field_validator("public_url", mode="before")
    @classmethod
    def _strip_public_url(cls, value: object) -> object:
        if isinstance(value, str):
            return value.strip().rstrip("/") or None
        return value

    @property
    def secure_cookies(self) -> bool:
        """Send the session cookie only over HTTPS: configured, or implied by the public URL."""
        return self.cookie_secure or (self.public_url or "").lower().startswith("https://")

    def public_origin(self) -> str | None:
        """`scheme://host[:port]` of the public URL, lower-case, or None."""
        if not self.public_url:
            return None
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}".lower() if parts.netloc else None

    def resolved_database_url(self) -> str:
        """The SQLAlchemy URL to connect to, with the driver made explicit."""
        if self.database_url:
            return normalize_database_url(self.database_url)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / SQLITE_FILE).resolve()}"

    def resolved_secret_key(self) -> str:
        """The key that signs session cookies; created in data_dir on first use if unset."""
        if self.secret_key:
            return self.secret_key
        self.data_dir.mkdir(parents=True, exist_ok=True)
        path = self.data_dir / SECRET_FILE
        if path.exists():
            key = path.read_text().strip()
            if key:
                return key
        key = secrets.token_urlsafe(48)
        # Written with mode 0600: anyone who reads it can forge cookies.
        path.touch(mode=0o600, exist_ok=True)
        path.write_text(key + "\n")
        return key


def normalize_database_url(url: str) -> str:
    """Map `postgres://` and `postgresql://` to the psycopg 3 driver; leave others alone."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def get_settings() -> Settings:
    """Settings from the current environment."""
    return Settings()
