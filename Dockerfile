# Sea Dragons Online: one server process. Configure with SEADRAGONS_* variables (docs/operations.md).
# Stage 1 builds the dependencies into a virtualenv; stage 2 copies that and the code, no tools.
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /src
RUN python -m venv /opt/venv
ENV PATH=/opt/venv/bin:$PATH
# Dependencies only (from pyproject.toml); the app itself runs from /srv/seadragons below.
COPY pyproject.toml README.md ./
COPY app/__init__.py app/__init__.py
RUN pip install --no-cache-dir . \
    && pip uninstall --yes seadragons

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/srv/seadragons \
    PATH=/opt/venv/bin:$PATH \
    SEADRAGONS_DATA_DIR=/data

RUN useradd --system --uid 10001 --home-dir /srv/seadragons --shell /usr/sbin/nologin seadragons \
    && mkdir -p /data \
    && chown seadragons /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /srv/seadragons
# Read-only for the server user: it writes only to /data.
COPY app app
COPY migrations migrations
COPY templates templates
COPY static static
COPY alembic.ini ./

USER 10001
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2).status != 200)"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "app.cli", "serve", "--host", "0.0.0.0", "--port", "8000"]
