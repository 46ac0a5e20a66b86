# Sea Dragons Online: one server process. Configure with SEADRAGONS_* variables (see README).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    SEADRAGONS_DATA_DIR=/data

WORKDIR /srv/seadragons
# Dependencies first, so code changes do not reinstall them.
COPY pyproject.toml README.md ./
COPY app/__init__.py app/__init__.py
RUN pip install --no-cache-dir . && pip uninstall -y seadragons
COPY . .
# Editable, so migrations/, templates/ and static/ are found beside the app package.
RUN pip install --no-cache-dir --no-deps -e . \
    && useradd --system --home /srv/seadragons seadragons \
    && mkdir -p /data && chown seadragons /data

USER seadragons
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz')"
CMD ["seadragons", "serve", "--host", "0.0.0.0", "--port", "8000"]
