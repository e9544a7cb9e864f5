/** The MCP surface of the gateway: the server over an executor, its HTTP route, and the stdio entry (./stdio-main.ts). */
export { gatewayExecutor, type GraphExecutor, type Operation } from '../graph/executor';
export { MCP_PATH, registerMcpRoute, type McpRouteDeps } from './http';
export { remoteExecutor, type RemoteExecutorOptions } from './remote-executor';
export { buildMcpServer, INSTRUCTIONS, SERVER_INFO, type McpServerDeps } from './server';
export { TOOLS } from './tools';
