#!/bin/sh
# Make sure Debian's chromium is at /usr/bin/chromium for the browser tests
# (test/browser/, driven by playwright-core). Installs it with apt-get when
# missing; does nothing when it is already there.
set -eu

CHROMIUM=/usr/bin/chromium

if [ -x "$CHROMIUM" ]; then
  "$CHROMIUM" --version 2>/dev/null || true
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $CHROMIUM is missing and apt-get is not available; install Chromium there by hand" >&2
  exit 1
fi

SUDO=
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "ensure-chromium: $CHROMIUM is missing; run as root (or with sudo) to install it" >&2
    exit 1
  fi
fi

echo "ensure-chromium: installing chromium with apt-get" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# Fonts: Liberation is metric-compatible with the Helvetica Graphviz lays labels out for.
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-liberation fonts-dejavu-core >/dev/null

if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-chromium: apt-get installed chromium but $CHROMIUM is not there" >&2
  exit 1
fi
"$CHROMIUM" --version 2>/dev/null || true
