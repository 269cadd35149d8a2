// The CLI's model loading as a library, for hosts and examples that honour REVERIE_MODEL too.
export { DEFAULT_OLLAMA_BASE_URL, type LoadedModel, loadModel, requiredKeyVariable } from './model/load-model';
export { formatModelSpec, type ModelSpec, parseModelSpec } from './model/parse-model-spec';
