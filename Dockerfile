# baccarat-audit as a container image (docs/reports.md, "Container image").
#
#   docker build -t baccarat-audit .
#   docker run --rm -v "$PWD:/work" --user "$(id -u):$(id -g)" baccarat-audit check recordings/ -o sarif=audit.sarif
#
# The image holds the tool only; mount the directory with the transcripts at
# /work (the working directory). --user runs it as you, so that it may write
# its reports there and they are yours; otherwise it runs as the unprivileged
# user below.

FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN python -m pip wheel --no-cache-dir --no-deps --wheel-dir /wheels . \
 && python -m pip wheel --no-cache-dir --wheel-dir /wheels /wheels/baccarat_audit-*.whl

FROM python:3.11-slim
LABEL org.opencontainers.image.title="baccarat-audit" \
      org.opencontainers.image.description="Replay recorded baccarat coups against a jurisdiction's rules and report every breach." \
      org.opencontainers.image.licenses="MIT"
COPY --from=build /wheels /tmp/wheels
RUN python -m pip install --no-cache-dir --no-index --find-links /tmp/wheels baccarat-audit \
 && rm -rf /tmp/wheels \
 && useradd --create-home --uid 10001 auditor
USER auditor
WORKDIR /work
ENV PYTHONDONTWRITEBYTECODE=1 NO_COLOR=1
ENTRYPOINT ["baccarat-audit"]
CMD ["--help"]
