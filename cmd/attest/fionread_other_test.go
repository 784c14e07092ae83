//go:build !linux

package main

// fionread asks how many bytes wait in a pipe: the BSDs' and macOS's
// FIONREAD, _IOR('f', 127, int).
const fionread = 0x4004667f
