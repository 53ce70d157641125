/** PlayerView fixtures for the unit tests: the rules package's own (`@klondike/rules/testing`). */
export { makeView, type ViewSpec } from '@klondike/rules/testing';
