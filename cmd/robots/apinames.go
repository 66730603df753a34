package main

import "github.com/fastrobots/robots/cmd/robots/internal/api"

// The JSON forms, the checks of a request and the API's endpoints live in
// package api, which the WebAssembly build of the tester shares; the
// command knows them by the names below.

type (
	apiError         = api.Error
	answer           = api.Answer
	plainAnswer      = api.PlainAnswer
	fetched          = api.Fetched
	fetchDetailsJSON = api.FetchDetailsJSON
	fetchRequest     = api.FetchRequest
	verdictJSON      = api.VerdictJSON
	robotsTxtJSON    = api.RobotsTxtJSON
	badURLError      = api.BadURLError
)

// Limits of a request and of a URL list (package api).
const (
	maxRequestBytes = api.MaxRequestBytes
	maxURLs         = api.MaxURLs
	maxAgents       = api.MaxAgents
	maxURLLine      = api.MaxURLLine
)

var errLineTooLong = api.ErrLineTooLong

var (
	badRequest     = api.BadRequest
	deadlineOr     = api.DeadlineOr
	encodeAnswer   = api.Encode
	answerLimit    = api.AnswerLimit
	decodeBody     = api.DecodeBody
	jsonError      = api.JSONError
	modeAndAgents  = api.ModeAndAgents
	detailsOf      = api.DetailsOf
	shortenEcho    = api.ShortenEcho
	quoteInput     = api.QuoteInput
	newJSONEncoder = api.NewJSONEncoder
	newVerdictJSON = api.NewVerdictJSON
	newErrorJSON   = api.NewErrorJSON
	explainJSON    = api.ExplainJSON
	ruleString     = api.RuleString
	rawB64         = api.RawB64
	checkURL       = api.CheckURL
)
