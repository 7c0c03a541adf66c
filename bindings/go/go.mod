module github.com/tessera-dev/tessera/bindings/go

go 1.22
