module ballot/tests/scylla-go

go 1.25.0

// ScyllaDB's fork of gocql keeps the original module path, so it replaces it.
require github.com/gocql/gocql v1.7.0

require (
	github.com/google/uuid v1.6.0 // indirect
	github.com/klauspost/compress v1.19.1 // indirect
	golang.org/x/sync v0.22.0 // indirect
	gopkg.in/inf.v0 v0.9.1 // indirect
)

replace github.com/gocql/gocql => github.com/scylladb/gocql v1.19.0
