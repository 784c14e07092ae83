import sys

print(sys.stdin.read().strip().upper())
