export { ServiceAccountsController, DEFAULT_SERVICE_ACCOUNTS, SERVICE_ACCOUNT_CONTROLLER_USER, type ServiceAccountsControllerOptions } from './controller.js';
