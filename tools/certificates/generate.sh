#!/usr/bin/env bash
# Development certificates for the TLS examples, benchmarks and tests: a CA, a server certificate for
# localhost and a client certificate, both signed by the CA, plus Diffie-Hellman parameters.
# Never use these outside development: the private keys are unencrypted and the password is public.
# Usage: generate.sh [--out DIR] [--password P] [--days N] [--dh-bits N] [--no-dh] [--force]
set -euo pipefail

SCRIPT_NAME=$(basename "$0")
SCRIPT_DIR=$(cd "$(dirname "$0")" && pwd)

out="$SCRIPT_DIR"
password="qwerty"
days=3650
dh_bits=2048
with_dh=1
force=0

die() {
    echo "$SCRIPT_NAME: error: $*" >&2
    exit 1
}

usage() {
    cat <<EOF
Usage: $SCRIPT_NAME [options]

Generates into DIR: ca.{key,crt,pem,pfx}, server.{key,csr,crt,pem,pfx}, client.{key,csr,crt,pem,pfx}, dh.pem.
Each *.pem holds the certificate followed by its private key; each *.pfx is PKCS#12 protected by the password.
Groups whose files all exist are kept unless --force; a regenerated CA also regenerates the server and client.

Options:
  --out DIR        target directory (default: $SCRIPT_DIR)
  --password P     PKCS#12 password (default: qwerty)
  --days N         validity in days (default: 3650)
  --dh-bits N      Diffie-Hellman prime size (default: 2048; 4096 takes minutes)
  --no-dh          skip the Diffie-Hellman parameters (.NET does not need them)
  --force          regenerate everything, overwriting existing files
  -h, --help       show this help
EOF
}

need_value() {
    if [ $# -lt 2 ] || [ -z "$2" ]; then
        die "option $1 needs a value (see --help)"
    fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --out) need_value "$@"; out="$2"; shift 2 ;;
        --out=*) out="${1#*=}"; shift ;;
        --password) need_value "$@"; password="$2"; shift 2 ;;
        --password=*) password="${1#*=}"; shift ;;
        --days) need_value "$@"; days="$2"; shift 2 ;;
        --days=*) days="${1#*=}"; shift ;;
        --dh-bits) need_value "$@"; dh_bits="$2"; shift 2 ;;
        --dh-bits=*) dh_bits="${1#*=}"; shift ;;
        --no-dh) with_dh=0; shift ;;
        --force) force=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
done

[[ "$days" =~ ^[1-9][0-9]*$ ]] || die "--days must be a positive integer, got '$days'"
[[ "$dh_bits" =~ ^[1-9][0-9]*$ ]] || die "--dh-bits must be a positive integer, got '$dh_bits'"
[ -n "$password" ] || die "--password must not be empty"
command -v openssl >/dev/null 2>&1 || die "openssl not found on PATH (Debian/Ubuntu: apt-get install openssl)"

mkdir -p "$out" || die "cannot create output directory '$out'"
out=$(cd "$out" && pwd)
[ -w "$out" ] || die "output directory '$out' is not writable"

# Files are built in a scratch directory inside $out and renamed into place group by group, so a failure
# or an interrupted run never leaves a half-written group behind, and concurrent readers see whole files.
work=$(mktemp -d "$out/.generate.XXXXXX") || die "cannot create a scratch directory in '$out'"
trap 'rm -rf "$work"' EXIT
umask 077

# The password travels in the environment, not on the command line where any user could read it (ps).
export NETCORESERVER_CERT_PASSWORD="$password"

log="$work/openssl.log"

# Runs openssl quietly; on failure shows what openssl said and stops.
ossl() {
    local step="$1"
    shift
    if ! openssl "$@" >"$log" 2>&1; then
        echo "$SCRIPT_NAME: error: $step failed (openssl $1):" >&2
        sed 's/^/    /' "$log" >&2
        exit 1
    fi
}

# Our own configuration, so the result does not depend on the distribution's openssl.cnf defaults.
config="$work/openssl.cnf"
cat >"$config" <<'EOF'
[ req ]
distinguished_name = req_dn
prompt = no
utf8 = yes
string_mask = utf8only

[ req_dn ]
# Overridden by -subj on every call.
CN = placeholder

[ ca_ext ]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign, digitalSignature
subjectKeyIdentifier = hash

[ server_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer

[ client_ext ]
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = clientAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid, issuer
EOF

# True when every named file exists in $out.
all_exist() {
    local name
    for name in "$@"; do
        [ -f "$out/$name" ] || return 1
    done
}

# Moves the named files from the scratch directory into $out (rename within one file system: atomic).
install_files() {
    local name
    for name in "$@"; do
        # Keys, and every file that contains one, stay private to the owner (umask 077); certificates are public.
        case "$name" in
            *.crt|*.csr) chmod 644 "$work/$name" ;;
        esac
        mv -f "$work/$name" "$out/$name" || die "cannot write '$out/$name'"
    done
}

# A random positive 120-bit serial, so reissued certificates never repeat one and no ca.srl is needed.
serial() {
    echo "0x$(openssl rand -hex 15)"
}

new_key() {
    ossl "$1 key" genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$work/$1.key"
}

# name.pem = certificate then private key; name.pfx = both, protected by the password.
bundle() {
    local name="$1"
    cat "$work/$name.crt" "$work/$name.key" >"$work/$name.pem"
    ossl "$name PKCS#12" pkcs12 -export -in "$work/$name.crt" -inkey "$work/$name.key" \
        -name "$name" -passout env:NETCORESERVER_CERT_PASSWORD -out "$work/$name.pfx"
}

# Issues a certificate for $1 (server or client) with subject CN $2 and extension section $3.
issue() {
    local name="$1" cn="$2" section="$3"
    new_key "$name"
    ossl "$name request" req -new -config "$config" -key "$work/$name.key" -sha256 \
        -subj "/CN=$cn" -out "$work/$name.csr"
    ossl "$name certificate" x509 -req -in "$work/$name.csr" -CA "$out/ca.crt" -CAkey "$out/ca.key" \
        -set_serial "$(serial)" -days "$days" -sha256 \
        -extfile "$config" -extensions "$section" -out "$work/$name.crt"
    bundle "$name"
    install_files "$name.key" "$name.csr" "$name.crt" "$name.pem" "$name.pfx"
}

ca_files=(ca.key ca.crt ca.pem ca.pfx)
server_files=(server.key server.csr server.crt server.pem server.pfx)
client_files=(client.key client.csr client.crt client.pem client.pfx)

ca_fresh=0
if [ "$force" = 1 ] || ! all_exist "${ca_files[@]}"; then
    new_key ca
    ossl "CA certificate" req -x509 -new -config "$config" -key "$work/ca.key" -sha256 \
        -subj "/CN=NetCoreServer Test CA" -set_serial "$(serial)" -days "$days" \
        -extensions ca_ext -out "$work/ca.crt"
    bundle ca
    install_files "${ca_files[@]}"
    ca_fresh=1
    echo "CA:     ${ca_files[*]}"
else
    echo "CA:     kept (use --force to regenerate)"
fi

if [ "$force" = 1 ] || [ "$ca_fresh" = 1 ] || ! all_exist "${server_files[@]}"; then
    issue server localhost server_ext
    echo "server: ${server_files[*]} (CN=localhost, DNS:localhost, IP:127.0.0.1, IP:::1)"
else
    echo "server: kept"
fi

if [ "$force" = 1 ] || [ "$ca_fresh" = 1 ] || ! all_exist "${client_files[@]}"; then
    issue client "NetCoreServer Test Client" client_ext
    echo "client: ${client_files[*]}"
else
    echo "client: kept"
fi

if [ "$with_dh" = 0 ]; then
    echo "DH:     skipped (--no-dh)"
elif [ "$force" = 1 ] || ! all_exist dh.pem; then
    ossl "Diffie-Hellman parameters" dhparam -out "$work/dh.pem" "$dh_bits"
    install_files dh.pem
    echo "DH:     dh.pem ($dh_bits bits)"
else
    echo "DH:     kept"
fi
