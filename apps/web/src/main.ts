import { createApp } from 'vue';
import App from './App.vue';
import { usePlayer } from './composables/usePlayer';
import { useSocket } from './composables/useSocket';
import { createAppRouter } from './router';
import './style.css';

// The player first: a sign-in link's code is taken out of the address before the router reads it.
usePlayer().start(useSocket());
createApp(App).use(createAppRouter()).mount('#app');
