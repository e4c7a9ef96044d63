//go:build !unix

package cli

// genCPUSeconds is not measured on this platform; benchmarks report 0.
func genCPUSeconds() float64 { return 0 }
