#!/bin/sh
# Writes the reference server's test certificates (kept in git, so the tests need no openssl command): a test CA, a
# certificate it signs for localhost and 127.0.0.1, and one it signs for another name. Valid for a hundred years.
set -eu
cd "$(dirname "$0")"
days=36500
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days $days -subj "/CN=expense-log test CA" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign" -keyout ca-key.pem -out ca.pem
for name in localhost other; do
    if [ $name = localhost ]; then names="DNS:localhost,IP:127.0.0.1,IP:::1"; else names="DNS:other.example"; fi
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$name" -keyout $name-key.pem -out $name.csr
    printf 'subjectAltName=%s\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n' "$names" > $name.ext
    openssl x509 -req -in $name.csr -CA ca.pem -CAkey ca-key.pem -CAcreateserial -days $days -extfile $name.ext -out $name.pem
    rm $name.csr $name.ext
done
rm -f ca.srl ca-key.pem
