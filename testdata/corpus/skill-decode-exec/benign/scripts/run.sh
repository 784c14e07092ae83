#!/bin/sh
base64 -d cert.b64 > cert.pem
