package outfiles

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ssa-diff/ssa-diff/internal/output"
)

// ParseFiles reads the --output-file values: at most one FILE, the -o output's (format is
// -o's), and FORMAT=PATH for more formats (each a File, Quiet), each to a file of its own;
// html is --report-html's file ("": none), which no other may be. A value whose part before
// = has a path separator is a FILE (a directory's name with = in it).
func ParseFiles(values []string, format, html string) (outputFile string, files []File, err error) {
	seen := map[string]string{}
	claim := func(path, what string) error {
		key := filepath.Clean(path)
		if prev, ok := seen[key]; ok {
			return fmt.Errorf("--output-file: %s and %s are both written to %s", prev, what, path)
		}
		seen[key] = what
		return nil
	}
	if html != "" {
		if err := claim(html, "--report-html"); err != nil {
			return "", nil, err
		}
	}
	for _, v := range values {
		f, path, isFormat := strings.Cut(v, "=")
		if isFormat && strings.ContainsAny(f, `/\`) {
			isFormat = false // a path with = in a directory's name
		}
		if !isFormat {
			if v == "" {
				return "", nil, errors.New("--output-file needs a file name")
			}
			if outputFile != "" {
				return "", nil, fmt.Errorf("--output-file %s and %s: the -o output goes to one FILE (FORMAT=PATH writes another format)", outputFile, v)
			}
			if err := claim(v, "-o "+format); err != nil {
				return "", nil, err
			}
			outputFile = v
			continue
		}
		if !slices.Contains(output.Formats(), f) {
			return "", nil, fmt.Errorf("--output-file %s: unknown format %q (want FORMAT=PATH, FORMAT one of %s; a FILE whose name has = in it is written ./%s)",
				v, f, strings.Join(output.Formats(), ", "), v)
		}
		if path == "" || path == "-" {
			return "", nil, fmt.Errorf("--output-file %s: needs a file name after %s= (standard output is -o's)", v, f)
		}
		if err := claim(path, f+"="); err != nil {
			return "", nil, err
		}
		files = append(files, File{Format: f, Path: path, Flag: "--output-file " + f + "=", Quiet: true})
	}
	return outputFile, files, nil
}
