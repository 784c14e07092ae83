// Package flow is the language-neutral program form that the code
// producers lower Python, JavaScript/TypeScript, Go, shell and PowerShell
// into, and the engine that follows values through it: scopes,
// containers, loops, string building, encodings, returns and parameters,
// and imports between an artifact's own files. What a call does (send,
// fetch, read a credential, run a shell) comes from the vocabulary, never
// from a list here.
//
// The form is deliberately loose: a front end that cannot make sense of a
// construct lowers it to an Other expression over its parts, so values
// still flow through it, and records it as unresolved when that loses
// something a check needs.
package flow

// Op is an expression's form.
type Op uint8

const (
	Name   Op = iota + 1 // S is the identifier
	Str                  // S is the literal's value
	Num                  // S is the literal as written
	Call                 // X is the callee; Args and Keys the arguments
	Attr                 // X.S
	Index                // X[Args[0]]
	Bin                  // Args[0] S Args[1]
	Fmt                  // the concatenation of Args (f-strings, templates, interpolated shell words)
	List                 // list, tuple, set, array: Args
	Dict                 // Keys[i]: Args[i]; key "**" spreads Args[i]; X, when set, is the literal's type
	Lambda               // Fn
	Other                // a value that merges Args (ternaries, unary operators, await)
	Elem                 // any element of X (what iterating X yields)
	Comp                 // a comprehension: Fn called with each element of X in turn, the list of its results
)

// Expr is one expression.
type Expr struct {
	Op   Op
	S    string
	X    *Expr
	Args []*Expr
	// Keys name Call arguments ("" positional, "*" and "**" spreads) and
	// Dict keys ("" when not constant).
	Keys      []string
	Fn        *Func
	Line, Col int32
}

// StmtOp is a statement's form.
type StmtOp uint8

const (
	Assign StmtOp = iota + 1 // Dst = Val
	Aug                      // Dst op= Val
	Eval                     // Val evaluated for its effects
	Return                   // return Val
	For                      // for Dst in Val: Body (a loop)
	While                    // while Val: Body (a loop)
	With                     // with Val as Dst: Body
	Block                    // if/try/else: Val (a condition, may be nil) and Body; branches follow one another
	Def                      // Fn is declared (its name bound in the scope)
	Class                    // a class: Fn holds its body as a function named for the class
)

// Stmt is one statement.
type Stmt struct {
	Op   StmtOp
	Dst  []*Expr
	Val  *Expr
	Body []*Stmt
	Fn   *Func
	// Outer makes an Assign or Aug to a name update the enclosing scope
	// that already holds it (a JavaScript closure assigning to a variable
	// it sees); otherwise the name is bound in the innermost scope.
	Outer     bool
	Line, Col int32
}

// Param is one parameter.
type Param struct {
	Name    string
	Default *Expr
	Rest    bool // *args, ...rest
}

// Func is a function, a method, or a unit's top level.
type Func struct {
	Name       string
	Params     []Param
	Body       []*Stmt
	Decorators []*Expr
	Line       int32
	// Class is the enclosing class's name for a method.
	Class string
}

// Import binds Local to a module (Member "") or to one of its members
// (Member "*" imports them all).
type Import struct {
	Local, Module, Member string
	Line                  int32
}

// Unit is one lowered program: a file, a block of a document, a command
// string.
type Unit struct {
	Path string
	// Lang selects the vocabulary section: python, js, go, shell,
	// powershell.
	Lang    string
	Top     *Func
	Imports []Import
	// Unresolved lists what the front end could not lower.
	Unresolved []Note
}

// Note is a place and what happened there.
type Note struct {
	Line int32
	What string
}

// Walk calls f for every expression in e, depth first, stopping below a
// node for which f returns false.
func Walk(e *Expr, f func(*Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	Walk(e.X, f)
	for _, a := range e.Args {
		Walk(a, f)
	}
}
