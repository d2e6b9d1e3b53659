# One BLEU Explorer worker: a single Streamlit process, run as an unprivileged user. Untested (no Docker where
# this was written); see docs/serving.md. Put several behind a sticky load balancer: deploy/compose.yaml.
#
# The base image is pinned by the digest of its multi-platform index (the tag is there for readers; Docker
# pulls by the digest). Taken from public Dockerfiles, not from the registry: check it with
#   docker buildx imagetools inspect python:3.11.14-slim-bookworm
# and when moving to a newer image, change tag and digest together.
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# Every package from the index is checked against its hashes, and none is built from source.
COPY deploy/requirements-docker.txt /tmp/requirements-docker.txt
RUN pip install --require-hashes --only-binary=:all: -r /tmp/requirements-docker.txt \
    && rm /tmp/requirements-docker.txt

# The code belongs to root and is only read by the app's user; bleu_core is built here, offline, with the
# setuptools installed above (so the `bleu-core` command line is there too).
WORKDIR /app
COPY . .
RUN pip install --no-deps --no-index --no-build-isolation . \
    && rm -rf build bleu_explorer.egg-info

# A user of its own, with a home for Streamlit's ~/.streamlit; no shell, no password.
RUN useradd --create-home --uid 10001 --user-group --shell /usr/sbin/nologin bleu
USER 10001:10001

EXPOSE 8501
HEALTHCHECK --interval=10s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=2)"
CMD ["streamlit", "run", "app.py", "--server.port", "8501", "--server.address", "0.0.0.0"]
