"""The routes of the web builder's apps, built once per process.

Each app's route functions are closures over its own workspace, editor and templates, but their
signatures are the same in every app, and reading a signature (its parameters, their types and
the models that check them) is most of the cost of making a route: about half of the time of
``create_app``. So a route is made once, for a stand-in function of the same signature, name and
description; every app with that route shares it, and the stand-in calls the function the app
that got the request registered (found in the app's state). Requests, answers and the API's
description (OpenAPI) are the same as with a route of each app's own function.

Measured (CPU time of ``create_app`` in one process, 2 shared CPUs): each app after the first
took 100-125 ms before (about half reading the routes, half compiling templates, now also done
once per process: ``COMPILED`` in ``builder/web/app.py``), 2-3 ms after; the first app, the one
``daimyo serve`` makes, takes the same time as before (about 0.3 s)."""

from __future__ import annotations

import inspect
import threading
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, Request
from starlette.routing import BaseRoute

from builder import state
from builder.web.jsonanswer import SafeJSONResponse

_STATE = "route_functions"  # where an app's state keeps its route functions, by route
_EXTRA = "_route_request"  # the request, for a function that does not take it itself
_made: dict[tuple, BaseRoute] = state.cache(
    "web.routes", bound=None, lifetime=state.PROCESS, doc="the process's routes, by route (see ``Routes.key``)"
)
_lock = threading.Lock()
# the routes are made on an app of their own: a FastAPI app's router gives its routes nothing of
# the app but its defaults (the same for every app made without route options, as create_app's)
_maker = FastAPI(default_response_class=SafeJSONResponse)


class Routes:
    """``get``, ``post`` and ``delete`` decorators as a FastAPI app's, giving the app ``api`` the
    process's route for each function (made for the first app that asks)."""

    def __init__(self, api: FastAPI) -> None:
        self.api = api
        self.functions: dict[tuple, Callable[..., Any]] = {}
        setattr(api.state, _STATE, self.functions)

    def get(self, path: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return self._route("GET", path, options)

    def post(self, path: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return self._route("POST", path, options)

    def delete(self, path: str, **options: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        return self._route("DELETE", path, options)

    @staticmethod
    def key(method: str, path: str, options: dict, fn: Callable[..., Any]) -> tuple:
        """What a route is made of: the function's code, defaults and annotations (equal in every
        app for the same ``def``), the method, the path and the route's options."""
        return (
            fn.__code__,
            repr(fn.__defaults__),
            repr(fn.__kwdefaults__),
            repr(fn.__annotations__),
            method,
            path,
            repr(sorted(options.items())),
        )

    def _route(self, method: str, path: str, options: dict) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
            key = self.key(method, path, options, fn)
            if key in self.functions:  # the same route twice in one app: a route of its own
                getattr(self.api, method.lower())(path, **options)(fn)
                return fn
            self.functions[key] = fn
            with _lock:
                route = _made.get(key)
                if route is None:
                    stand_in = _stand_in(fn, key)
                    getattr(_maker, method.lower())(path, **options)(stand_in)  # as ``@api.get(...)``
                    route = _maker.router.routes.pop()
                    assert getattr(route, "endpoint", None) is stand_in
                    _made[key] = route
            self.api.router.routes.append(route)
            return fn

        return decorator


def _stand_in(fn: Callable[..., Any], key: tuple) -> Callable[..., Any]:
    """A function with the signature, name and description of ``fn`` that calls the function the
    requested app registered under ``key``."""
    sig = inspect.signature(fn, eval_str=True)
    params = list(sig.parameters.values())
    given = next((p.name for p in params if p.annotation is Request), None)  # a request parameter
    if given is None:
        params.append(inspect.Parameter(_EXTRA, inspect.Parameter.KEYWORD_ONLY, annotation=Request))
    name = given or _EXTRA

    def function_of(kw: dict) -> Callable[..., Any]:
        request = kw[name] if given else kw.pop(_EXTRA)
        return getattr(request.app.state, _STATE)[key]

    call: Callable[..., Any]
    if inspect.iscoroutinefunction(fn):

        async def call(**kw: Any) -> Any:
            return await function_of(kw)(**kw)

    else:

        def call(**kw: Any) -> Any:
            return function_of(kw)(**kw)

    vars(call)["__signature__"] = sig.replace(parameters=params)  # what FastAPI reads of it
    call.__name__ = fn.__name__
    call.__qualname__ = fn.__qualname__
    call.__doc__ = fn.__doc__
    call.__module__ = fn.__module__
    return call
