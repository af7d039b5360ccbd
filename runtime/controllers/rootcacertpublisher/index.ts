export { DESCRIPTION, DESCRIPTION_ANNOTATION, ROOT_CA_CERT_CONFIG_MAP_NAME, ROOT_CA_CERT_KEY, RootCACertPublisher, type RootCACertPublisherOptions } from './publisher.js';
