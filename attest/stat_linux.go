package attest

import (
	"io/fs"
	"syscall"
)

func statMeta(fi fs.FileInfo) (fileMeta, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fileMeta{}, false
	}
	return fileMeta{
		ino:   st.Ino,
		mtime: uint64(st.Mtim.Sec)*1e9 + uint64(st.Mtim.Nsec),
		ctime: uint64(st.Ctim.Sec)*1e9 + uint64(st.Ctim.Nsec),
		dev:   st.Dev,
	}, true
}
