#!/usr/bin/env bash
# Makes a private CA and a server certificate for the TLS listener, in broker-config/certs/.
# Usage: broker-config/make-certs.sh BROKER_HOSTNAME [DAYS]
set -euo pipefail
host=${1:?usage: make-certs.sh BROKER_HOSTNAME [DAYS]}
days=${2:-825}
dir=$(cd "$(dirname "$0")" && pwd)/certs
mkdir -p "$dir" && cd "$dir"
openssl req -x509 -newkey rsa:3072 -nodes -days 3650 -subj "/CN=home2mqtt CA" -keyout ca.key -out ca.crt
openssl req -newkey rsa:3072 -nodes -subj "/CN=$host" -keyout server.key -out server.csr
printf 'subjectAltName=DNS:%s,DNS:localhost,IP:127.0.0.1\n' "$host" > san.ext
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days "$days" -extfile san.ext -out server.crt
rm -f server.csr san.ext
chmod 600 ca.key server.key
echo "made $dir/{ca.crt,server.crt,server.key}; give clients ca.crt"
