/**
 * Every component mounted by @vue/test-utils gets the app's vue-i18n instance (src/i18n), as main.ts installs
 * it in the app. In tests the messages are compiled when first used (the build precompiles them).
 */
import { config } from '@vue/test-utils';
import { i18n } from '../src/i18n';

config.global.plugins.push(i18n);
