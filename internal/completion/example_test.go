package completion_test

import (
	"fmt"
	"os"

	"github.com/ssa-diff/ssa-diff/internal/completion"
)

// A command of two flags answers the completion of an --output value and of a flag's name.
func ExampleCommand_Complete() {
	cmd := completion.Command{
		Flags: []completion.Flag{
			{Name: "output", Short: "o", Help: "The format", Value: true, Choices: []string{"json", "junit", "text"}},
			{Name: "force-conflicts", Help: "Apply with force"},
		},
		Formats: []string{"json", "junit", "text"},
	}
	fmt.Print(cmd.Complete([]string{"-o", "j"}, os.ReadDir))
	fmt.Print(cmd.Complete([]string{"--fo"}, os.ReadDir))
	// Output:
	// json
	// junit
	// :4
	// --force-conflicts	Apply with force
	// :4
}
