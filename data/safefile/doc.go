// Package safefile reads the files a user names (case files, the
// similarity config, a clusters file) without trusting what the name
// points at.
//
// Only regular files are read: a directory, a named pipe (FIFO), a device
// such as /dev/zero, or a socket is refused by its type before it is
// opened (opening a FIFO blocks until a writer comes; some devices act on
// open). A symbolic link to a regular file is read like the file. The
// file is then opened without blocking and its type checked again on the
// open descriptor, so a name swapped for a pipe in between is still
// refused. Reads are bounded by the bytes actually read, never by the
// size the file system reports (0 for a device, and a file may grow while
// it is read).
package safefile
