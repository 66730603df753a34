package fetch

// UserAgentComment ends the default User-Agent header of robots.txt
// requests.
const UserAgentComment = "(+https://github.com/fastrobots/robots)"

// DefaultUserAgent returns the User-Agent header sent with robots.txt
// requests for the crawler agent (a product token such as "ExampleBot")
// when none is set: "ExampleBot/1.0 (+https://github.com/fastrobots/robots)",
// or "fastrobots/1.0 …" when agent is "".
func DefaultUserAgent(agent string) string {
	if agent == "" {
		agent = "fastrobots"
	}
	return agent + "/1.0 " + UserAgentComment
}
