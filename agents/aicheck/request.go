package aicheck

import (
	"fmt"
	"regexp"
	"sync"

	"github.com/codeman-dev/codeman/respawn"
)

// maxModelLen bounds a model name; real ones are under 40 characters.
const maxModelLen = 100

// modelPattern keeps a model name to what aliases and model ids use, so
// that it can never be read as a flag or carry shell syntax.
var modelPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-zA-Z0-9._/-]+$`) })

// validateRequest returns the first problem of req that would make running
// claude pointless, as a sentence.
func validateRequest(req respawn.CheckRequest) error {
	if req.Kind != respawn.IdleCheck && req.Kind != respawn.PlanCheck {
		return fmt.Errorf("unknown check kind %d", int(req.Kind))
	}
	return validateModel(req.Model)
}

func validateModel(model string) error {
	switch {
	case model == "":
		return fmt.Errorf("check model is empty")
	case len(model) > maxModelLen:
		return fmt.Errorf("check model %.20q... is %d characters, want at most %d", model, len(model), maxModelLen)
	case !modelPattern().MatchString(model):
		return fmt.Errorf("check model %q has characters outside %s", model, modelPattern())
	case model[0] == '-':
		// "-x" would be taken by claude as a flag, not as --model's value.
		return fmt.Errorf("check model %q starts with a dash", model)
	}
	return nil
}
