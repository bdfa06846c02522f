# home2mqtt in a container: a Swift build stage, then a slim Debian runtime holding the binary,
# libmosquitto's runtime library and CA certificates. Guide: docs/deploy.md.
#   docker build -t home2mqtt .
#   docker run -d --name home2mqtt -v "$PWD/config.yaml:/config/config.yaml:ro" home2mqtt
# Both base images are multi-architecture: this builds for linux/amd64 or linux/arm64 alike
# (docker buildx build --platform linux/amd64,linux/arm64 -t home2mqtt .).

# ---- build: exactly the release build CI runs (scripts/build-release) ----------------------------
# Swift 6.3 on Debian 12, the same Debian release as the runtime stage below.
FROM swift:6.3-bookworm AS build

# libmosquitto-dev, libyaml-dev: the headers and pkg-config files the CMosquitto and CLibYAML
# targets build against.
# Versions are not pinned (DL3008): Debian keeps only the newest bookworm build of a package in its
# archive, so a pinned version stops installing at the next security update; the suite pins them.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libmosquitto-dev libyaml-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
# The dependencies first, in their own layer, so that changing a source file does not fetch them again.
COPY Package.swift Package.resolved* ./
RUN swift package resolve
COPY . .
RUN scripts/build-release /out

# ---- runtime --------------------------------------------------------------------------------------
FROM debian:bookworm-slim

# libmosquitto1 (it brings libssl3 for TLS), libyaml-0-2 (the configuration's parser) and CA
# certificates for the broker's and the Pi-holes' TLS. The binary links the Swift runtime and
# Foundation statically; what it still loads (scripts/build-release checks the list) is
# libmosquitto, libyaml, glibc, libgcc_s, libstdc++ and zlib:
# the last two are in the base image already and are named so that they stay.
# Unpinned versions: see the build stage.
# hadolint ignore=DL3008
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates libmosquitto1 libyaml-0-2 libstdc++6 zlib1g \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 home2mqtt \
    && useradd --system --uid 10001 --gid home2mqtt --home-dir /data --no-create-home \
        --shell /usr/sbin/nologin home2mqtt \
    && mkdir -p /config /data \
    && chown home2mqtt:home2mqtt /data

COPY --from=build /out/home2mqtt /usr/local/bin/home2mqtt

# /config: config.yaml (mounted read-only) and any certificates it names.
# /data: the bridge's state; owned by the bridge's user, so a new named volume is writable.
VOLUME ["/config", "/data"]
WORKDIR /data
USER 10001:10001

# The health endpoint is on in the image: HEALTHCHECK below asks it (on 127.0.0.1 inside the
# container, so nothing needs publishing). A config.yaml may still move bind_address or port.
ENV HOME2MQTT_BRIDGE__HEALTH__ENABLED=true
ENV HOME2MQTT_BRIDGE__STATE_DIR=/data

# Healthy only while the bridge is connected to the broker (/healthz answers 200).
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["home2mqtt", "healthcheck", "--config", "/config/config.yaml"]

# The bridge finishes on SIGTERM within 5 s (docker stop waits 10 s before SIGKILL).
STOPSIGNAL SIGTERM
ENTRYPOINT ["home2mqtt"]
CMD ["run", "--config", "/config/config.yaml"]
