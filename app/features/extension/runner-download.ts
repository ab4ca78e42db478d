/** Where the build publishes the local runner's npm package (scripts/publish-runner.js); the server serves build/client as is. */
export const RUNNER_DOWNLOAD_PATH = '/downloads/aether-runner.tgz'
