/**
 * What the normalizer derives from records, versioned: raise it when derived data changes (typed tool input,
 * cleaned tool output, new derived events, secrets found) and every indexed file is read again from its start,
 * unchanged or not. Its own module so that the store can compare it without loading every reader.
 */
export const TOPOLOGY_VERSION = 14;
