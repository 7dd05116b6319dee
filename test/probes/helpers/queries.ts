/**
 * Queries that find the planted secrets' events: the names beside the values, the words around them, the
 * providers' prefixes of the values, and `kind:secret`. A person or an agent looking for a key types these.
 */
export const SECRET_QUERIES = [
  "kind:secret",
  "aws_access_key_id",
  "aws_secret_access_key",
  "GitHub token",
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "STRIPE_SECRET_KEY",
  "SLACK_BOT_TOKEN",
  "GH_TOKEN",
  "DATABASE_URL",
  "postgres admin",
  "db.internal",
  "RSA PRIVATE KEY",
  "OPENSSH PRIVATE KEY",
  "deploy credentials",
  "id_ed25519",
  "rotate the keys",
  "sk_live",
  "ghp",
  "xoxb",
  "github_pat",
];

/** Words no transcript holds: every surface must answer them with nothing. */
export const GIBBERISH = "zzzznotthere qxjvw";
