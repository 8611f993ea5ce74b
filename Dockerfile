# daimyo viewer: lists that open from their links (/v/<share code>), in a container.
#   docker build -t daimyo-viewer .
#   docker run --rm -p 8780:8780 -e DAIMYO_VIEWER=https://lists.example.org daimyo-viewer
# It keeps no data of its own: run as many copies as you like behind a proxy. Its two workers
# share the pages they draw in /var/cache/daimyo/viewer (docs/viewer.md, cache folder).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /app
COPY . /app
RUN pip install . && useradd --system --uid 10001 daimyo
# packs the viewer knows by name (the lists that name them show all their entries)
ENV DAIMYO_PACKS=/app/packs XDG_CACHE_HOME=/var/cache
RUN mkdir -p /app/packs /var/cache/daimyo && chown daimyo /var/cache/daimyo
USER daimyo
EXPOSE 8780
HEALTHCHECK --interval=30s --timeout=3s CMD python -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8780/healthz')"
CMD ["daimyo", "viewer", "--host", "0.0.0.0", "--port", "8780", "--workers", "2"]
