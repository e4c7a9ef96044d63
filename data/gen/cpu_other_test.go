//go:build !unix

package gen

// cpuSeconds is not measured on this platform; benchmarks report 0.
func cpuSeconds() float64 { return 0 }
