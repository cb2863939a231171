/** What a request is allowed to see, established by the auth middleware: the domain's actor. */
export { actorOf as callerOf, assertProjectAccess, canAccessProject, type Actor as Caller } from '../domain/actor.js';
