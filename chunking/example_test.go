package chunking_test

import (
	"fmt"

	"github.com/ranklab/ranklab/chunking"
)

func ExampleNewFootprint() {
	f, err := chunking.NewFootprint(10000, 512, 128)
	if err != nil {
		panic(err)
	}
	fmt.Printf("stride %d, %d chunks, %d indexed, %d duplicated (%.0f%%)\n", f.Stride, f.Chunks, f.Indexed, f.Duplicated, 100*f.Duplication)
	fmt.Println(f.Window(0), f.Window(1), f.Window(f.Chunks-1))
	_, err = chunking.NewFootprint(10000, 128, 128)
	fmt.Println(err)
	// Output:
	// stride 384, 26 chunks, 13200 indexed, 3200 duplicated (32%)
	// {0 512} {384 896} {9600 10000}
	// overlap: 128 must be in 0..127 (below chunk size 128)
}

func ExampleWindows() {
	fmt.Println(chunking.Windows(10, 4, 1))
	// Output:
	// [{0 4} {3 7} {6 10}]
}

func ExampleFootprintOf() {
	// Three documents cut on their own: 1 + ceil((1000−512)/384) = 3 chunks, 1 chunk, no chunk.
	f, err := chunking.FootprintOf([]int{1000, 300, 0}, 512, 128)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d tokens, %d chunks, %d indexed, %d duplicated\n", f.Corpus, f.Chunks, f.Indexed, f.Duplicated)
	// Output:
	// 1300 tokens, 4 chunks, 1556 indexed, 256 duplicated
}
